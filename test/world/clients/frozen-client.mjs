// A plain Minecraft client in a process of its own, so a test can freeze it (SIGSTOP) mid-session: it logs in with
// the name and port it is given, says `in` once the server has it in play, and then what ends its session.
import mc from 'minecraft-protocol';

const [port, username] = process.argv.slice(2);
const client = mc.createClient({ host: '127.0.0.1', port: Number(port), username, version: '1.21.4', auth: 'offline' });
client.once('login', () => process.stdout.write('in\n'));
client.on('kick_disconnect', (packet) => process.stdout.write(`kicked ${JSON.stringify(packet.reason)}\n`));
client.on('error', (error) => process.stdout.write(`error ${error.message}\n`));
client.once('end', (reason) => {
  process.stdout.write(`ended ${reason ?? ''}\n`);
  process.exit(0);
});
