/**
 * Memhook for Spring AI: {@link dev.memhook.springai.MemhookAdvisor}, a {@code ChatClient} advisor
 * that hooks a {@link dev.memhook.api.MemoryService} into each conversation.
 */
package dev.memhook.springai;
