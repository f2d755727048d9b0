// Preloaded (node --import) into a run of the CLI by test/security.test.ts: any attempt to open a
// network connection or resolve a name is written to stderr as "NETWORK-USE: …" and fails.
import dns from "node:dns";
import net from "node:net";

const refuse = (what) => {
  process.stderr.write(`NETWORK-USE: ${what}\n`);
  throw new Error(`network use refused in this test: ${what}`);
};
net.Socket.prototype.connect = function connect() {
  refuse("net.Socket.connect");
};
net.connect = net.createConnection = () => refuse("net.connect");
for (const name of ["lookup", "resolve", "resolve4", "resolve6", "lookupService"]) {
  dns[name] = () => refuse(`dns.${name}`);
  dns.promises[name] = async () => refuse(`dns.promises.${name}`);
}
