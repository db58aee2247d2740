const { startNats, startPostgres, HARNESS_ENV } = require('@platform/testkit');

/** Starts the run's real servers and hands their addresses to every test file through the environment. */
module.exports = async function globalSetup() {
  const [postgres, nats] = await Promise.all([startPostgres(), startNats()]);
  process.env[HARNESS_ENV.postgresAdminUrl] = postgres.url('postgres');
  process.env[HARNESS_ENV.natsUrl] = nats.url;
  globalThis.__PLATFORM_HARNESS__ = { postgres, nats };
};
