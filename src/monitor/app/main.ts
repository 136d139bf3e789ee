import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { token } from './connection.js';
import { Live } from './live.js';
import { Replay } from './replay.js';

/**
 * `#replay` lists journaled runs, `#replay=<planId>` replays one; anything else is the live view. The token stays in
 * the fragment.
 */
function route(): { replay: string | null } | null {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.has('replay') ? { replay: params.get('replay') || null } : null;
}

const link = (planId: string) => `#${new URLSearchParams({ ...(token ? { token } : {}), replay: planId }).toString()}`;

function App() {
  const [where, setWhere] = useState(route);
  useEffect(() => {
    const onHash = () => setWhere(route());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return where ? html`<${Replay} planId=${where.replay} link=${link} />` : html`<${Live} />`;
}

render(html`<${App} />`, document.getElementById('app')!);
