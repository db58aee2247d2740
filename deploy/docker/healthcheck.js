#!/usr/bin/env node
'use strict';
// Container health check for docker compose, with nothing beyond what the image already has.
// (Kubernetes does not use it: the chart uses native gRPC and HTTP probes.)
//
//   node deploy/docker/healthcheck.js grpc [host:port]   grpc.health.v1.Health/Check, passes on SERVING
//   node deploy/docker/healthcheck.js http [url]         passes on a 2xx answer
//
// The gateway's GET /health answers 200 while the gateway serves, also with an upstream down (status "degraded",
// each upstream listed), and 503 only while it drains: a failed service never marks the gateway unhealthy.
//
// Defaults: grpc -> 127.0.0.1:$GRPC_PORT (50051); http -> http://127.0.0.1:$PORT/health (8080).
// HEALTHCHECK_SERVICE names the gRPC health service to ask about ('' = the whole server),
// HEALTHCHECK_TIMEOUT_MS bounds the check (3000).

/* global fetch, AbortSignal */
const { Buffer } = require('node:buffer');

const [mode = 'grpc', target] = process.argv.slice(2);
const timeoutMs = Number(process.env.HEALTHCHECK_TIMEOUT_MS || 3000);

function finish(ok, message) {
  (ok ? process.stdout : process.stderr).write(`${message}\n`);
  process.exit(ok ? 0 : 1);
}

function encodeVarint(value) {
  const bytes = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

// HealthCheckResponse { ServingStatus status = 1; }: returns the status number (0 when absent).
function decodeStatus(buffer) {
  let offset = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (offset >= buffer.length) throw new Error('truncated response');
      const byte = buffer[offset++];
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  };
  let status = 0;
  while (offset < buffer.length) {
    const tag = varint();
    const wireType = tag & 7;
    if (tag >>> 3 === 1 && wireType === 0) status = varint();
    else if (wireType === 0) varint();
    else if (wireType === 2) offset += varint();
    else if (wireType === 1) offset += 8;
    else if (wireType === 5) offset += 4;
    else throw new Error(`unexpected wire type ${wireType}`);
  }
  return status;
}

const STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

function checkGrpc() {
  const grpc = require('@grpc/grpc-js');
  const address = target || `127.0.0.1:${process.env.GRPC_PORT || 50051}`;
  const service = Buffer.from(process.env.HEALTHCHECK_SERVICE || '', 'utf8');
  // HealthCheckRequest { string service = 1; }
  const request = service.length > 0 ? Buffer.concat([Buffer.from([0x0a]), encodeVarint(service.length), service]) : Buffer.alloc(0);
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  client.makeUnaryRequest(
    '/grpc.health.v1.Health/Check',
    (value) => value,
    (value) => value,
    request,
    { deadline: Date.now() + timeoutMs },
    (error, response) => {
      client.close();
      if (error) return finish(false, `grpc ${address}: ${error.message}`);
      let status;
      try {
        status = decodeStatus(response);
      } catch (decodeError) {
        return finish(false, `grpc ${address}: ${decodeError.message}`);
      }
      return finish(status === 1, `grpc ${address}: ${STATUS[status] || status}`);
    },
  );
}

function checkHttp() {
  const url = target || `http://127.0.0.1:${process.env.PORT || 8080}/health`;
  fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
    (response) => finish(response.ok, `http ${url}: ${response.status}`),
    (error) => finish(false, `http ${url}: ${error.message}`),
  );
}

if (mode === 'grpc') checkGrpc();
else if (mode === 'http') checkHttp();
else finish(false, 'usage: healthcheck.js grpc [host:port] | http [url]');
