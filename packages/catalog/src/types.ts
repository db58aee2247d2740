/** A secret a service reads from its environment. */
export interface SecretSpec {
  /** The variable the service reads. */
  readonly env: string;
  /** What it protects, for the docs and the Helm notes. */
  readonly description: string;
  /**
   * How `npm start` and the tests get it: `hex32` is 32 random bytes, hex-encoded, made once and kept in
   * DATA_DIR/keys.json (tests get fresh ones each run). The launcher's own environment wins when it sets the variable.
   */
  readonly devstack: 'hex32';
  /** Where Kubernetes keeps it: services.<name>.secretEnv.<env> in values.yaml points at this Secret and key. */
  readonly helm: { readonly secretName: string; readonly key: string };
  /** The placeholder docker-compose.yml falls back to (`${ENV:-placeholder}`); never a production value. */
  readonly composePlaceholder: string;
  /** How it may change, for the Helm notes; absent: it must never change. */
  readonly lifecycle?: string;
}

/** A plain variable a service gets beyond the common ones (GRPC_PORT, DATABASE_URL, NATS_URL, LOG_LEVEL, <NAME>_GRPC_URL). */
export interface ExtraEnv {
  readonly env: string;
  readonly description: string;
  /**
   * Under `npm start` and the tests, unless the launcher's environment sets the variable: `{publicUrl}` is the
   * gateway's public URL, `{databasePrefix}` the prefix of this platform's database names (tests share servers).
   */
  readonly devstack?: string;
  /** In docker-compose.yml (may use `${VAR:-default}`); absent: not set there. */
  readonly compose?: string;
  /** In values.yaml (services.<name>.env); absent: not set there. */
  readonly helm?: string;
}

export interface ServiceEntry {
  /** Folder under services/, process and Helm/compose name: a lowercase DNS label. */
  readonly name: string;
  /** The property of the gateway's clients (GatewayClients) and its /health answer: camelCase of the name. */
  readonly client: string;
  /** One line on what the service owns. */
  readonly summary: string;
  /** Its own PostgreSQL database (and role, in compose). */
  readonly database: string;
  /** Fully qualified gRPC service name, as in proto/ (`<package>.<Service>`); @platform/contracts maps it to code. */
  readonly grpcService: string;
  /** Where every process finds it: `<NAME>_GRPC_URL` (host:port). */
  readonly addressEnv: string;
  /** The key scopes (route resources) a public API key can be limited to, for this service's routes. */
  readonly scopes: readonly string[];
  readonly secrets: readonly SecretSpec[];
  readonly env: readonly ExtraEnv[];
  /** Helm: requests and limits when they differ from `defaults.resources`; a comment above the entry. */
  readonly deploy?: {
    readonly resources?: { readonly requests: { readonly cpu: string; readonly memory: string }; readonly limits: { readonly cpu: string; readonly memory: string } };
    readonly note?: string;
  };
}
