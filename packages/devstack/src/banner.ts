/**
 * What the launcher prints once the platform answers. The API key and admin token appear on the first start
 * only (a terminal's scrollback or a captured log would keep them from every start); later starts say where
 * they are kept.
 */
export function banner(options: {
  port: number;
  credentialsFile: string;
  credentials: { clientId?: string; apiKey?: string; adminToken: string };
  firstStart: boolean;
}): string[] {
  const { port, credentialsFile, credentials } = options;
  const lines = ['', `The platform is up: http://localhost:${port}  (API docs: http://localhost:${port}/docs)`];
  if (options.firstStart) {
    lines.push(
      `Credentials (printed on this first start only; kept in ${credentialsFile}):`,
      `  X-Client-Id:   ${credentials.clientId}`,
      `  X-Api-Key:     ${credentials.apiKey}`,
      `  X-Admin-Token: ${credentials.adminToken}`,
      '',
      `Try: curl -s http://localhost:${port}/v1/customers -H "X-Client-Id: ${credentials.clientId}" -H "X-Api-Key: ${credentials.apiKey}"`,
    );
  } else {
    lines.push(`Credentials (client id, API key, admin token) are in ${credentialsFile}`);
  }
  lines.push('A service, the gateway or nats-server that crashes is started again; Ctrl-C stops everything.', '');
  return lines;
}
