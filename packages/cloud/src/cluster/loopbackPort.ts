import { createServer } from "node:net";

/** A loopback port nothing listens on now. */
export function freeLoopbackPort(): Promise<number> {
  return listenOnce(0);
}

/** Whether `port` on 127.0.0.1 can be taken now (the cluster listens there alone). */
export async function loopbackPortIsFree(port: number): Promise<boolean> {
  try {
    await listenOnce(port);
    return true;
  } catch {
    return false;
  }
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const taken = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(taken));
    });
  });
}
