// A reference point between nginx and the Atelier server: Node's own http module answering
// every request with the page's bytes from memory, no framework, no database, no log.
// What a single Node process can do at best on this machine.
//   node node-static.mjs FILE PORT
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import process from "node:process";

const [file, port] = process.argv.slice(2);
const body = readFileSync(file);
const server = createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  res.end(body);
});
server.listen(Number(port), "127.0.0.1");
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
