#!/bin/sh
# Runs a command with a supported Node (>= 22) first on PATH: the system one when it is new
# enough, otherwise the one the setup script installed under .tools/node.
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
local_bin="$root/.tools/node/node_modules/node/bin"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ] && [ -x "$local_bin/node" ]; then
  PATH="$local_bin:$PATH"
  export PATH
fi
exec "$@"
