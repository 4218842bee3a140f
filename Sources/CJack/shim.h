#ifndef JACKTAP_CJACK_SHIM_H
#define JACKTAP_CJACK_SHIM_H
#include <jack/jack.h>
#include <jack/metadata.h>
#include <jack/midiport.h>
#include <jack/uuid.h>
#include <semaphore.h>

/// jack_client_open is variadic, which Swift does not import; jacktap never passes a server name here
/// (JACK_DEFAULT_SERVER selects it), so the fixed-argument form is all it needs.
static inline jack_client_t *jacktap_client_open(const char *name, jack_options_t options, jack_status_t *status) {
    return jack_client_open(name, options, status);
}

/// JACK_METADATA_PRETTY_NAME is a mutable C global, which Swift 6 will not read; the shim reads it.
static inline int jacktap_set_pretty_name(jack_client_t *client, jack_port_t *port, const char *pretty) {
    return jack_set_property(client, jack_port_uuid(port), JACK_METADATA_PRETTY_NAME, pretty, "text/plain");
}

/// Removes the pretty name jacktap set on one of its ports.
static inline int jacktap_remove_pretty_name(jack_client_t *client, jack_port_t *port) {
    return jack_remove_property(client, jack_port_uuid(port), JACK_METADATA_PRETTY_NAME);
}

/// A port's JACK metadata pretty name, or NULL when it has none; free it with jack_free.
static inline char *jacktap_copy_pretty_name(jack_port_t *port) {
    char *value = NULL, *type = NULL;
    if (jack_get_property(jack_port_uuid(port), JACK_METADATA_PRETTY_NAME, &value, &type) != 0) return NULL;
    if (type) jack_free(type);
    return value;
}
#endif
