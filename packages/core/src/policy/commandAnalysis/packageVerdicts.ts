import { projectCode, type Verdict, verdict, withNetwork } from "./verdict.js";

/**
 * Package installs need the network, which the sandbox cuts off, so they always say so. Installs
 * into the project (`npm install`, `npm ci`, `pip install -r`) are medium; installs into the
 * user's or the system's environment (`npm -g`, apt, brew, cargo install) are high.
 */
export const projectInstall = (what: string): Verdict =>
  withNetwork(verdict("medium", `${what} installs packages into the project`));
export const globalInstall = (what: string): Verdict =>
  withNetwork(verdict("high", `${what} installs packages outside the project`));
export const runsScript = (what: string): Verdict => projectCode(`${what} runs a project script`);
export const readsInfo = (what: string): Verdict => verdict("low", `${what} only reads`, true);
export const queriesRegistry = (what: string): Verdict =>
  withNetwork(verdict("low", `${what} queries the registry`, true));
export const publishes = (what: string): Verdict =>
  withNetwork(verdict("high", `${what} publishes to a registry`));
