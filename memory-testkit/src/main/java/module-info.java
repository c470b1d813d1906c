/**
 * Test helpers shipped for users: a fake chat service, the chat-service and store contracts, and
 * the seed convention. The contracts are JUnit test classes a host's tests extend, so JUnit's API
 * comes with this module, and JUnit may reflect into them.
 */
module dev.memhook.testkit {
  requires transitive dev.memhook.api;
  requires transitive org.junit.jupiter.api;
  requires org.slf4j;

  exports dev.memhook.testkit;

  opens dev.memhook.testkit to
      org.junit.platform.commons;
}
