/**
 * Test helpers shipped for users: {@link dev.memhook.testkit.FakeChatService}, a complete chat
 * service with scripted model replies for testing hosts and hooks, and
 * {@link dev.memhook.testkit.MemoryStoreContract}, the test every store implementation extends.
 */
package dev.memhook.testkit;
