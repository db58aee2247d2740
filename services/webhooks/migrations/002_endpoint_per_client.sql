-- An endpoint is unique among the webhooks of one client, not across clients: two clients may deliver to the
-- same URL, and a client learns nothing (no conflict) about another client's endpoints.
CREATE UNIQUE INDEX webhooks_client_endpoint ON webhooks (client_id, endpoint);
DROP INDEX webhooks_endpoint;
