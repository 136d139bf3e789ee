import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '..', '..', 'dist');

describe('the compiled package (dist/, built by npm ci through prepare)', () => {
  it('carries its sources in every source map: the package ships no src/, and a trace or a debugger must still resolve', () => {
    const maps = readdirSync(dist, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(100);
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(dist, file), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      expect(map.sourcesContent?.length, file).toBe(map.sources.length);
      expect(
        map.sourcesContent!.every((text) => typeof text === 'string' && text.length > 0),
        file,
      ).toBe(true);
    }
  });
});
