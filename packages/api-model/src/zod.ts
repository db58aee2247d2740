import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The response schemas of the public API are built with z from here, so `.openapi()` exists before any of them is
// (the gateway extends the same zod instance; extending twice is a no-op). The gateway's OpenAPI document names
// them by their `.openapi('Name')`.
extendZodWithOpenApi(z);

export { z };

/** A free-form JSON object of an answer. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());
