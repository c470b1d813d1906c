/**
 * Memhook's API: what hosts and plug-in authors program against. Every package but {@code
 * dev.memhook.api.internal}, the helpers the API's own types share, is exported.
 */
module dev.memhook.api {
  exports dev.memhook.api;
  exports dev.memhook.api.capture;
  exports dev.memhook.api.chat;
  exports dev.memhook.api.spi;
  exports dev.memhook.api.trace;
}
