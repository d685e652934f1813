import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Runs Amazon's DynamoDB Local bound to 127.0.0.1. Its own launcher has no bind-address option and
 * listens on every interface (Jetty's `new Server(port)`), which would let anyone on the network read
 * and write local mode's tables. This builds the server the launcher would build from the same
 * arguments, sets its connectors' host to loopback, then starts it. Reflection only, so it compiles
 * against nothing but the JDK (Java's single-file source launcher runs it: `java DynamoLoopback.java`).
 */
public class DynamoLoopback {
  public static void main(String[] args) throws Exception {
    Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
    Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) args);
    Field field = proxy.getClass().getDeclaredField("server");
    field.setAccessible(true);
    Object server = field.get(proxy);
    Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local built a server without connectors");
    for (Object connector : connectors) {
      Method setHost = connector.getClass().getMethod("setHost", String.class);
      setHost.invoke(connector, "127.0.0.1");
    }
    proxy.getClass().getMethod("start").invoke(proxy);
  }
}
