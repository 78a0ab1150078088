/* The cuzk.v1.ProvingEngine service over the engine: the method table for cuzk_rpc_server_create,
 * whose handlers take the cuzk_engine_t* as their context. */
#ifndef CUZK_SERVER_SERVICE_H
#define CUZK_SERVER_SERVICE_H
#include <stddef.h>
#include "cuzk/engine.h"
#include "server/rpc_server.h"

/* The eight methods (SubmitProof, AwaitProof, Prove, CancelProof, GetStatus, GetMetrics, PreloadSRS,
 * EvictSRS); *n gets their number. */
const cuzk_rpc_method_t *cuzk_service_methods(size_t *n);
#endif
