package dev.memhook.cli;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import java.util.Map;

/**
 * The check both MCP transports make of a request's {@code params} before the SDK's server handles
 * it, so that params of the wrong shape are answered as JSON-RPC's invalid params ({@code -32602})
 * with a message that names what was wrong, never quoting it.
 *
 * <h2>Design note</h2>
 *
 * The SDK reads a method's params only in its handler: params it cannot read (a string, {@code
 * "arguments":5}, a method that needs params without them) fail there as an internal error ({@code
 * -32603}, a 500 over HTTP) whose message is the exception's, which quotes the offending value and
 * so may carry a secret into the reply and the logs. MCP's params are always an object, so any
 * other value is refused for every method; for the methods whose handlers read their params ({@link
 * #READ}), they are read here the way the handler reads them ({@link McpJsonMapper#convertValue}),
 * and a failure is refused with the method's name only.
 *
 * <p>Stateless and thread-safe.
 */
final class McpParams {

  /**
   * The methods whose handlers read their params into a type of the SDK, and that type; the other
   * methods these servers answer (ping, tools/list) read none.
   */
  private static final Map<String, TypeRef<?>> READ =
      Map.of(
          McpSchema.METHOD_INITIALIZE,
          new TypeRef<McpSchema.InitializeRequest>() {},
          McpSchema.METHOD_TOOLS_CALL,
          new TypeRef<McpSchema.CallToolRequest>() {},
          McpSchema.METHOD_LOGGING_SET_LEVEL,
          new TypeRef<McpSchema.SetLevelRequest>() {});

  private McpParams() {}

  /**
   * What makes {@code request}'s params unfit for its method, without quoting them, or null if
   * nothing does.
   */
  static String problem(McpJsonMapper mapper, JSONRPCRequest request) {
    Object params = request.params();
    if (params != null && !(params instanceof Map)) {
      return "\"params\" must be an object";
    }
    TypeRef<?> type = READ.get(request.method());
    if (type == null) {
      return null;
    }
    if (params == null) {
      return request.method() + " needs params";
    }
    try {
      mapper.convertValue(params, type);
      return null;
    } catch (RuntimeException e) {
      return "the params of "
          + request.method()
          + " do not have the fields it takes, of their types";
    }
  }
}
