/* A Mosquitto 2.0 plugin that binds a client id to its user: a client that logs in as USER may connect
 * only with the client id USER or USER.<anything>. Room and table ids hold letters, digits, '-' and '_'
 * only, so the '.' ends the user's part: table t01 can never take t01-b's id, nor the collector's
 * persistent session (collector.main.host): its password cannot knock another client off or steal
 * its queued messages. Unlike use_username_as_clientid, one user may run several processes (two
 * collectors, a standby broadcast), each with its own id. Clients without a user name are left to
 * the broker's other settings (the room's broker allows none). See docs/room.md.
 *
 * Build: gcc -O2 -shared -fPIC -o clientid_guard.so clientid_guard.c   (headers: Debian mosquitto-dev)
 * Use:   plugin /usr/local/lib/pokertable/clientid_guard.so           (in mosquitto.conf)
 */
#include <string.h>

#include <mosquitto.h>
#include <mosquitto_broker.h>
#include <mosquitto_plugin.h>

static mosquitto_plugin_id_t *plugin_id;

static int on_basic_auth(int event, void *event_data, void *userdata)
{
	struct mosquitto_evt_basic_auth *auth = event_data;
	const char *id = mosquitto_client_id(auth->client);
	size_t n;

	(void)event;
	(void)userdata;
	if (auth->username == NULL || id == NULL) {
		return MOSQ_ERR_PLUGIN_DEFER;
	}
	n = strlen(auth->username);
	if (strncmp(id, auth->username, n) == 0 && (id[n] == '\0' || id[n] == '.')) {
		return MOSQ_ERR_PLUGIN_DEFER; /* the password file decides */
	}
	mosquitto_log_printf(MOSQ_LOG_WARNING, "pokertable: user %s may not use client id %s (only %s or %s.*)",
			auth->username, id, auth->username, auth->username);
	return MOSQ_ERR_AUTH;
}

int mosquitto_plugin_version(int supported_version_count, const int *supported_versions)
{
	(void)supported_version_count;
	(void)supported_versions;
	return 5;
}

int mosquitto_plugin_init(mosquitto_plugin_id_t *identifier, void **userdata, struct mosquitto_opt *options,
		int option_count)
{
	(void)userdata;
	(void)options;
	(void)option_count;
	plugin_id = identifier;
	return mosquitto_callback_register(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL, NULL);
}

int mosquitto_plugin_cleanup(void *userdata, struct mosquitto_opt *options, int option_count)
{
	(void)userdata;
	(void)options;
	(void)option_count;
	return mosquitto_callback_unregister(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL);
}
