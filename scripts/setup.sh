#!/usr/bin/env bash
# Installs everything Lathe needs on a Debian-like machine and builds it.
#   - system tools Lathe uses when present (ripgrep, bubblewrap, git, chromium) and PostgreSQL's
#     server binaries (the fleet's tests start throwaway clusters), via apt-get when running as
#     root; skipped with a note otherwise
#   - Node 24 from the npm registry into .tools/node when the system Node is older than 22
#   - the workspace's npm packages, then the TypeScript build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

want_apt=(ripgrep bubblewrap git chromium postgresql)
missing=()
for pkg in "${want_apt[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${missing[*]} with apt-get"
    apt-get update -qq >/dev/null || echo "setup: apt-get update failed; trying the install anyway"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || echo "setup: could not install ${missing[*]}; Lathe works without them with reduced features"
  else
    echo "setup: not root or no apt-get; install these yourself for full features: ${missing[*]}"
  fi
fi

major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ]; then
  if [ ! -x .tools/node/node_modules/node/bin/node ]; then
    echo "setup: system Node is $(node --version 2>/dev/null || echo missing); installing Node 24 into .tools/node"
    mkdir -p .tools/node
    npm install --prefix .tools/node --no-save --no-audit --no-fund --loglevel=error node@24 >/dev/null
  fi
  PATH="$root/.tools/node/node_modules/node/bin:$PATH"
  export PATH
fi
echo "setup: using Node $(node --version)"

if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm install --no-audit --no-fund --loglevel=error
fi
npm run build
echo "setup: done. Run the tests with: npm test"
