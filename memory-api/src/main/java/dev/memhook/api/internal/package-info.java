/**
 * Helpers the API's own types share, such as the rule every builder follows. Not API: a host must
 * not use these types, which may change in any release; the module exports this package to no one.
 */
package dev.memhook.api.internal;
