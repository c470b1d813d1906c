/**
 * Memhook for LangChain4j: {@link dev.memhook.langchain4j.LangChain4jChatService}, a Memhook {@link
 * dev.memhook.api.chat.ChatService} over any LangChain4j {@code ChatModel}, and {@link
 * dev.memhook.langchain4j.MemhookLangChain4j}, which hooks every conversation of a LangChain4j
 * {@code AiServices} assistant. LangChain4j types appear only in this package's signatures, never
 * in {@code memory-api}.
 */
package dev.memhook.langchain4j;
