/**
 * Running `heimdall daemon` as the user's service: the definitions (a systemd
 * user unit, a launchd agent; pure text) and the calls to the service
 * manager that load, start, stop and query them.
 *
 * Owns nothing in `$HEIMDALL_HOME` but the log file the service appends to.
 * Never runs the daemon itself and never needs root: user services only.
 */
export * from "./unit.ts";
export * from "./control.ts";
