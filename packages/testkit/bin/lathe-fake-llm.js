#!/usr/bin/env node
import { runFakeLlmCommand } from "../dist/fakeLlmCli.js";

process.exitCode = await runFakeLlmCommand(process.argv.slice(2));
