-- Runs once, when the postgres container starts on an empty data volume
-- (files in /docker-entrypoint-initdb.d run as the POSTGRES_USER superuser).
--
-- One database per service, each owned by its own login role, like production: a service reads and
-- writes only its own database. The services create their tables with their own SQL migrations at start.
-- Passwords here are for local use only (docker-compose.yml builds each DATABASE_URL from them).
--
-- The lines below come from the catalog (packages/catalog; `npm run deploy:generate`). On an existing volume,
-- run a new service's lines by hand (docker compose exec postgres psql -U platform -d platform) or recreate
-- the volume (docker compose down -v).

-- >>> catalog:databases
CREATE ROLE settings LOGIN PASSWORD 'settings';
CREATE DATABASE settings OWNER settings;
REVOKE ALL ON DATABASE settings FROM PUBLIC;

CREATE ROLE customers LOGIN PASSWORD 'customers';
CREATE DATABASE customers OWNER customers;
REVOKE ALL ON DATABASE customers FROM PUBLIC;

CREATE ROLE payments LOGIN PASSWORD 'payments';
CREATE DATABASE payments OWNER payments;
REVOKE ALL ON DATABASE payments FROM PUBLIC;

CREATE ROLE webhooks LOGIN PASSWORD 'webhooks';
CREATE DATABASE webhooks OWNER webhooks;
REVOKE ALL ON DATABASE webhooks FROM PUBLIC;

CREATE ROLE sessions LOGIN PASSWORD 'sessions';
CREATE DATABASE sessions OWNER sessions;
REVOKE ALL ON DATABASE sessions FROM PUBLIC;

CREATE ROLE sellers LOGIN PASSWORD 'sellers';
CREATE DATABASE sellers OWNER sellers;
REVOKE ALL ON DATABASE sellers FROM PUBLIC;

CREATE ROLE payouts LOGIN PASSWORD 'payouts';
CREATE DATABASE payouts OWNER payouts;
REVOKE ALL ON DATABASE payouts FROM PUBLIC;
-- <<< catalog:databases
