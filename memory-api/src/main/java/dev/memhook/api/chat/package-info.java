/**
 * The host side: what a chat application exposes ({@link dev.memhook.api.chat.ChatService}) so a
 * memory hook can observe and enrich its turns, the message and tool values it exchanges, and the
 * host kit that implements it for any chat stack: {@link dev.memhook.api.chat.HostedChat}, built
 * from the host's {@link dev.memhook.api.chat.MessageMapper} and {@link
 * dev.memhook.api.chat.ModelCall}, and {@link dev.memhook.api.chat.ConversationRegistry} for a
 * bounded number of conversations.
 */
package dev.memhook.api.chat;
