/**
 * What the launcher prints once the platform answers. The API key and admin token appear on the first start
 * only (a terminal's scrollback or a captured log would keep them from every start); later starts say where
 * they are kept. Then where each process serves its metrics, the gateway first.
 */
export function banner(options: {
  port: number;
  /** The admin API's own port (/admin/v1, X-Admin-Token). */
  adminPort: number;
  /** Each process's metrics port, by process name, in the order to print them. */
  metricsPorts: Record<string, number>;
  credentialsFile: string;
  credentials: { clientId?: string; apiKey?: string; adminToken: string; demoMerchantId?: string; demoPspMerchantId?: string };
  firstStart: boolean;
}): string[] {
  const { port, credentialsFile, credentials } = options;
  const lines = [
    '',
    `The platform is up: http://localhost:${port}  (API docs: http://localhost:${port}/docs)`,
    `Admin API (X-Admin-Token): http://localhost:${options.adminPort}/admin/v1`,
  ];
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
  if (credentials.demoMerchantId) {
    lines.push(`Demo merchant (Cielo, then Rede, then SANDBOX; Pix at Efí; all simulated on this machine): ${credentials.demoMerchantId}`);
  }
  if (credentials.demoPspMerchantId) {
    lines.push(`PSP demo merchant (Pagar.me, then Mercado Pago, Stripe, Adyen, SANDBOX; simulated): ${credentials.demoPspMerchantId}`);
  }
  const metrics = Object.entries(options.metricsPorts);
  if (metrics.length > 0) {
    const width = Math.max(...metrics.map(([name]) => name.length));
    lines.push('', 'Metrics (Prometheus):');
    for (const [name, metricsPort] of metrics) lines.push(`  ${name.padEnd(width)}  http://localhost:${metricsPort}/metrics`);
    const gateway = options.metricsPorts.gateway;
    if (gateway !== undefined) lines.push(`Try: curl -s http://localhost:${gateway}/metrics | grep http_server_requests_total`);
    lines.push('');
  }
  lines.push('A service, the gateway or nats-server that crashes is started again; Ctrl-C stops everything.', '');
  return lines;
}
