import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDirectory, isSocket } from "./pathKinds.js";

/**
 * bwrap arguments that hide the host's service sockets. A read-only mount does not stop
 * `connect()` on a Unix socket, and several of them run anything asked of them outside the
 * sandbox: the Docker or Podman daemon (`docker run -v /:/host`), systemd through D-Bus
 * (`systemd-run --user`), an SSH agent that signs with the user's keys. `--unshare-net` does not
 * cover them, since they live in the file system.
 */
export function hostServiceMaskArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  const args: string[] = [];
  // Session bus, user systemd, podman, gpg and keyring agents all live in the runtime dir.
  const runtimeDir = userRuntimeDir(env);
  if (runtimeDir !== undefined) args.push("--tmpfs", runtimeDir);
  const sockets = new Set<string>();
  for (const candidate of socketCandidates(env)) {
    const real = realpathOrUndefined(candidate);
    if (real === undefined || !isSocket(real)) continue;
    if (runtimeDir !== undefined && isInside(real, runtimeDir)) continue;
    sockets.add(real);
  }
  for (const socket of sockets) args.push("--ro-bind", "/dev/null", socket);
  return args;
}

function userRuntimeDir(env: NodeJS.ProcessEnv): string | undefined {
  const uid = process.getuid?.();
  const candidates = [env.XDG_RUNTIME_DIR, uid === undefined ? undefined : `/run/user/${uid}`];
  for (const candidate of candidates) {
    if (candidate === undefined || !path.isAbsolute(candidate)) continue;
    const real = realpathOrUndefined(candidate);
    if (real !== undefined && isDirectory(real)) return real;
  }
  return undefined;
}

function socketCandidates(env: NodeJS.ProcessEnv): string[] {
  const home = os.homedir();
  const candidates = [
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/podman/podman.sock",
    "/run/containerd/containerd.sock",
    "/run/dbus/system_bus_socket",
    "/var/run/dbus/system_bus_socket",
    // systemctl's private socket: root reaches the system manager through it without D-Bus.
    "/run/systemd/private",
    path.join(home, ".docker/run/docker.sock"),
    path.join(home, ".docker/desktop/docker.sock"),
  ];
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost?.startsWith("unix://") === true) candidates.push(dockerHost.slice("unix://".length));
  if (env.SSH_AUTH_SOCK !== undefined && path.isAbsolute(env.SSH_AUTH_SOCK))
    candidates.push(env.SSH_AUTH_SOCK);
  return candidates;
}

function realpathOrUndefined(target: string): string | undefined {
  try {
    return realpathSync(target);
  } catch {
    return undefined;
  }
}

function isInside(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
