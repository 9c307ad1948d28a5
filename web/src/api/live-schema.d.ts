// Generated from src/services/live/organization-messages.ts (zod → JSON Schema → openapi-typescript); do not edit.
// Regenerate: npm run gen:api
/* biome-ignore-all lint: generated */
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        LiveMonitor: {
            id: string;
            key: string;
            name: string;
            /** @enum {string} */
            type: "minecraft-java" | "minecraft-bedrock" | "source" | "fivem" | "rust-webrcon" | "rcon" | "pterodactyl" | "gamedig" | "discord" | "http" | "tcp" | "tls" | "dns" | "heartbeat" | "ping" | "domain-expiry" | "postgres" | "mysql" | "redis" | "nats" | "mqtt" | "amqp" | "mongodb" | "ssh" | "udp" | "websocket" | "smtp" | "imap" | "pop3" | "grpc" | "docker";
            /**
             * @description The monitor state, or `paused` while it is disabled.
             * @enum {string}
             */
            state: "up" | "degraded" | "down" | "unknown" | "paused";
            /** @description Since when the monitor has been in its state (epoch ms); for `paused`, since it was paused. */
            since: number;
            /** @description Its latest result (epoch ms); null before the first. */
            checkedAt: number | null;
            ok: boolean | null;
            latencyMs: number | null;
            /** @description The latest result’s summary, or why it failed. */
            message: string | null;
        };
        /** @description Sent first on every connection, and again when monitors are created, changed or deleted. Replace everything you hold. */
        LiveSnapshotMessage: {
            /** @constant */
            type: "snapshot";
            /** @description epoch milliseconds: when the server sent the message */
            at: number;
            /** @description Every monitor of the organization, by key. */
            monitors: components["schemas"]["LiveMonitor"][];
        };
        /** @description A monitor's state or latest result changed (typically after each check). */
        LiveMonitorMessage: {
            /** @constant */
            type: "monitor";
            /** @description epoch milliseconds: when the server sent the message */
            at: number;
            monitor: components["schemas"]["LiveMonitor"];
            /**
             * @description The state the stream last told of; equal to monitor.state when only the latest result moved.
             * @enum {string}
             */
            previousState: "up" | "degraded" | "down" | "unknown" | "paused";
        };
        /** @description One text frame of the organization stream: a JSON object with `type` and `at` (epoch ms). */
        LiveMessage: components["schemas"]["LiveSnapshotMessage"] | components["schemas"]["LiveMonitorMessage"];
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
