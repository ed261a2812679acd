import { type Instance, render } from "ink";
import { TerminalApp, type TerminalControls } from "./TerminalApp.js";
import type { TerminalState } from "./terminalState.js";

/**
 * Draws the terminal UI on this process's terminal: finished items once into the scrollback, the
 * live region redrawn at most 30 times a second, only its changed lines. Loaded only by the
 * interactive face, so `lathe -p` never pays for Ink and React.
 */
export function mountTerminalApp(state: TerminalState, controls: TerminalControls): Instance {
  return render(<TerminalApp state={state} controls={controls} />, {
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 30,
    incrementalRendering: true,
    // Lathe chose this face because stdin and stdout are terminals; Ink would otherwise take a CI
    // variable in the user's environment (dev containers set one) to mean nobody is watching, and
    // draw nothing until exit.
    interactive: true,
  });
}
