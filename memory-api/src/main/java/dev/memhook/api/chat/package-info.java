/**
 * The host side: what a chat application exposes ({@link dev.memhook.api.chat.ChatService}) so a
 * memory hook can observe and enrich its turns, and the message and tool values it exchanges.
 */
package dev.memhook.api.chat;
