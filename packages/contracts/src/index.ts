// One namespace per proto folder and the map of every gRPC service (`grpcServices`), both written into src/gen
// from proto/ at build time (scripts/generate-index.js), never committed: a new proto folder needs no edit here.
export * from './gen/index';
