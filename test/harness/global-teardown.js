module.exports = async function globalTeardown() {
  const harness = globalThis.__PLATFORM_HARNESS__;
  if (!harness) return;
  await Promise.all([harness.nats.stop(), harness.postgres.stop()]);
};
