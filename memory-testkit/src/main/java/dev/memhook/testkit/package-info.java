/**
 * Test helpers shipped for users: {@link dev.memhook.testkit.FakeChatService}, a complete chat
 * service with scripted model replies for testing hosts and hooks; the store contracts every store
 * implementation runs, {@link dev.memhook.testkit.MemoryStoreContract} for every store (with the
 * interfaces it implements, {@link dev.memhook.testkit.StoreWriteContract} and {@link
 * dev.memhook.testkit.StoreSearchContract}) and one interface per {@link
 * dev.memhook.api.spi.StoreCapability} it declares ({@link
 * dev.memhook.testkit.DurableStoreContract}, {@link dev.memhook.testkit.AtomicBatchStoreContract});
 * {@link dev.memhook.testkit.ForwardingMemoryStore} for tests that break or observe one store
 * method; and {@link dev.memhook.testkit.Seeds}, the seed convention of randomised tests.
 */
package dev.memhook.testkit;
