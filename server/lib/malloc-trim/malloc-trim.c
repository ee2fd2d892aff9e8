// glibc's malloc_trim(0) for the server (server/lib/malloc-trim.ts): returns the free pages inside
// the malloc heaps to the system. glibc trims only the top of a heap by itself, so memory freed
// after a burst among blocks still in use stays resident (docs/security.md, "Memory after a burst").
// Built by scripts/build-malloc-trim.mjs with the system's cc; Node-API, so any Node version loads it.
#include <malloc.h>
#include <node_api.h>
static napi_value Trim(napi_env env, napi_callback_info info) {
  napi_value out;
  napi_get_boolean(env, malloc_trim(0) == 1, &out);
  return out;
}
NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "mallocTrim", NAPI_AUTO_LENGTH, Trim, NULL, &fn);
  napi_set_named_property(env, exports, "mallocTrim", fn);
  return exports;
}
