import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { keepAliveLongerThanPeers } from "../process";

/** Listens on a free loopback port; returns the base URL and a close function. */
export async function listen(app: { listen: (port: number, host: string, cb: () => void) => Server }): Promise<{
  url: string;
  server: Server;
  close: () => Promise<void>;
}> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      keepAliveLongerThanPeers(server);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        server,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
