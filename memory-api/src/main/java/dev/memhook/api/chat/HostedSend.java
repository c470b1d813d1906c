package dev.memhook.api.chat;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A send of a {@link HostedChat} that the host drives one loop at a time, for a host that calls the
 * model itself in a way {@link HostedChat#sendNow} cannot wrap in one blocking call: a streamed
 * reply, or an advisor chain that assembles each request itself. Opened by {@link
 * HostedChat#openSend()}; each loop is {@link #startLoop()}, the host's model call (with {@link
 * #submitted} right before it), then {@link #finishLoop}, whose answer says whether to run another.
 *
 * <pre>{@code
 * try (HostedSend<MyMessage> send = chat.openSend()) {
 *   boolean again = true;
 *   while (again) {
 *     send.startLoop();
 *     List<MyMessage> request = send.withPairs(assemble(chat.transcript())); // the host's
 *     send.submitted(request);
 *     again = send.finishLoop(List.of(myClient.complete(request, chat.tools())));
 *   }
 * }
 * }</pre>
 *
 * The kit keeps what it keeps for its own sends: queued messages and pairs join the conversation
 * (where the chat's {@link HostedChat.Placement} puts them in the transcript and in {@link
 * HostedChat#messages()}) at the start of each loop, the callbacks run and are awaited, the request
 * is reported to the {@code onRequestSubmitted} listeners, the reply joins the conversation, and
 * {@link HostedChat#setNeedsResend()}, {@link HostedChat#interrupt} and the chat's {@linkplain
 * HostedChat.Builder#maxLoopsPerSend loop bound} decide whether another loop runs. The host builds
 * each request, places pairs in it if it wants them anywhere but where the transcript has them, and
 * runs the model's tool calls (with {@link HostedChat#executeForModel}, say); tool calls in a reply
 * are not run here. A host whose request is rebuilt on each call from a history that does not keep
 * the pairs builds its chat with {@link HostedChat.Placement#AT_ITS_TURN} and passes each request
 * through {@link #withPairs}.
 *
 * <p>Sends of one chat are serialised: the send holds the chat's turn from {@code openSend} until
 * {@link #close()}, and other sends (this kind, {@link HostedChat#send()}, {@link
 * HostedChat#sendNow}) wait for it; always close it. Its methods may be called from any thread, one
 * at a time and in the order above (the halves of a loop may run on different threads, as a
 * stream's do); they block on the callbacks, never on the model. After {@link #close()} they throw
 * {@link IllegalStateException}. Null arguments are rejected with {@link NullPointerException}.
 *
 * @param <M> the host's message type
 */
public final class HostedSend<M> implements AutoCloseable {

  private final HostedSendLoop<M> loop;
  private final int maxLoops;
  private final Runnable end;
  private final AtomicBoolean closed = new AtomicBoolean();
  private int loops; // guarded by this

  HostedSend(HostedSendLoop<M> loop, int maxLoops, Runnable end) {
    this.loop = loop;
    this.maxLoops = maxLoops;
    this.end = end;
  }

  /**
   * The first half of a loop: queued messages and pairs join the conversation, every {@code
   * beforeSendLoop} callback runs and is awaited (up to the chat's callback timeout, if set), and
   * what they queued joins it too. A resend requested before this call is forgotten.
   *
   * @throws IllegalStateException if closed
   */
  public synchronized void startLoop() {
    checkOpen();
    loops++;
    loop.startOpenLoop();
  }

  /**
   * {@code request}, the host's request rebuilt from its own history without the injected pairs,
   * with every pair the conversation has delivered put back at its turn, as {@link
   * HostedChat.Placement#AT_ITS_TURN} states; send the model what this returns, and report it with
   * {@link #submitted}. With another placement the pairs are in the transcript, where the host
   * builds its request from, and this returns a copy of {@code request}. Call it after {@link
   * #startLoop()}, so that the pairs that joined the conversation there are placed too.
   *
   * @throws IllegalStateException if closed
   */
  public List<M> withPairs(List<M> request) {
    Objects.requireNonNull(request, "request");
    checkOpen();
    return loop.withPairsOpen(request);
  }

  /**
   * Reports {@code request}, the host's messages in the order the model reads them, to the {@code
   * onRequestSubmitted} listeners, as about to be sent; call it right before each model call, and
   * not for a request that is not sent. A message the chat logged is reported as the very message
   * of {@link HostedChat#messages()}, any other as a fresh translation. A listener's failure is
   * logged.
   *
   * @throws IllegalStateException if closed
   */
  public void submitted(List<M> request) {
    Objects.requireNonNull(request, "request");
    checkOpen();
    loop.reportOpen(request);
  }

  /**
   * The second half of a loop: the model's {@code reply} (the host's messages, in order; tool calls
   * in it are the host's to run) joins the conversation, and every {@code afterSend} callback runs
   * and is awaited.
   *
   * @return whether to run another loop: a resend was requested during this loop, the chat was not
   *     interrupted during this send, and the loop bound is not reached
   * @throws IllegalStateException if closed
   */
  public synchronized boolean finishLoop(List<M> reply) {
    Objects.requireNonNull(reply, "reply");
    checkOpen();
    return loop.finishOpenLoop(reply) && loops < maxLoops;
  }

  /** Ends the send: the chat's next send may start. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      end.run();
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("this send is closed");
    }
  }
}
