/**
 * Test helpers shipped for users: {@link dev.memhook.testkit.FakeChatService}, a complete chat
 * service with scripted model replies for testing hosts and hooks; {@link
 * dev.memhook.testkit.ChatServiceContract} (with {@link
 * dev.memhook.testkit.HookedChatServiceContract} and {@link
 * dev.memhook.testkit.SubmissionReportingContract}), the tests every chat service runs through a
 * {@link dev.memhook.testkit.ChatHarness} over a {@link dev.memhook.testkit.ModelScript}; {@link
 * dev.memhook.testkit.ForwardingChatService} for tests that change one chat-service method; the
 * store contracts every store implementation runs, {@link dev.memhook.testkit.MemoryStoreContract}
 * for every store (with the interfaces it implements, {@link
 * dev.memhook.testkit.StoreWriteContract}, {@link dev.memhook.testkit.StoreSearchContract} and
 * {@link dev.memhook.testkit.StoreListingContract}) and one interface per {@link
 * dev.memhook.api.spi.StoreCapability} it declares ({@link
 * dev.memhook.testkit.DurableStoreContract}, {@link dev.memhook.testkit.AtomicBatchStoreContract},
 * {@link dev.memhook.testkit.PassageVectorsStoreContract}); {@link
 * dev.memhook.testkit.ForwardingMemoryStore} for tests that break or observe one store method;
 * {@link dev.memhook.testkit.Seeds}, the seed convention of randomised tests; and the seeded
 * generators of hostile input, {@link dev.memhook.testkit.HostileStrings} for text and {@link
 * dev.memhook.testkit.HostileArguments} for the argument text of a model's tool call.
 */
package dev.memhook.testkit;
