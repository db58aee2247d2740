-- The image of a SANDBOX Pix QR code or boleto barcode is found by the provider's transaction id in its URL.
CREATE INDEX transaction_requests_transaction ON transaction_requests (transaction_id) WHERE transaction_id IS NOT NULL;
