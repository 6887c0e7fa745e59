package dev.fsm.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace joined to this host by a veth pair, as a second host on a cable: the host
 * side has {@code 10.200.N.1/24}, the namespace {@code 10.200.N.2/24}. Pulling the cable is
 * {@link #cut} (the host side's link goes down). Needs root and {@code ip}.
 */
final class NetNamespace implements AutoCloseable {

  private final String name;
  private final String hostSide;
  private final int subnet;

  private NetNamespace(String name, String hostSide, int subnet) {
    this.name = name;
    this.hostSide = hostSide;
    this.subnet = subnet;
  }

  /**
   * Why namespaces cannot be made here (not root, no {@code ip}), or empty when they may be.
   */
  static Optional<String> unavailable() {
    Result id = run("id", "-u");
    if (id.exit != 0 || !id.out.strip().equals("0")) {
      return Optional.of("needs root to create network namespaces (`ip netns`); running as uid "
          + id.out.strip());
    }
    Result ip = run("ip", "netns", "list");
    if (ip.exit != 0) {
      return Optional.of("`ip netns` does not work here: " + ip.out.strip());
    }
    return Optional.empty();
  }

  /**
   * A namespace named after this JVM's pid, with its link up; throws {@link IllegalStateException}
   * saying which step failed (the caller skips the test then). Whatever was made is removed.
   */
  static NetNamespace create() {
    long pid = ProcessHandle.current().pid();
    int subnet = (int) (pid % 200) + 20;
    NetNamespace ns = new NetNamespace("fsm-it-" + pid, "fsmh" + pid % 100_000, subnet);
    String inside = "fsmn" + pid % 100_000;
    try {
      ns.ip("netns", "add", ns.name);
      ns.ip("link", "add", ns.hostSide, "type", "veth", "peer", "name", inside);
      ns.ip("link", "set", inside, "netns", ns.name);
      ns.ip("addr", "add", ns.hostAddress() + "/24", "dev", ns.hostSide);
      ns.ip("link", "set", ns.hostSide, "up");
      ns.ip("netns", "exec", ns.name, "ip", "addr", "add", ns.address() + "/24", "dev", inside);
      ns.ip("netns", "exec", ns.name, "ip", "link", "set", inside, "up");
      ns.ip("netns", "exec", ns.name, "ip", "link", "set", "lo", "up");
      return ns;
    } catch (IllegalStateException e) {
      ns.close();
      throw e;
    }
  }

  /** The host's address as the namespace reaches it. */
  String hostAddress() {
    return "10.200." + subnet + ".1";
  }

  /** The namespace's own address. */
  String address() {
    return "10.200." + subnet + ".2";
  }

  /** The subnet of the pair, for pg_hba.conf. */
  String cidr() {
    return "10.200." + subnet + ".0/24";
  }

  /** Words to put before a command so it runs in the namespace. */
  List<String> prefix() {
    return List.of("ip", "netns", "exec", name);
  }

  /** Pulls the cable: nothing gets through until {@link #restore}. */
  void cut() {
    ip("link", "set", hostSide, "down");
  }

  /** Plugs the cable back in. */
  void restore() {
    ip("link", "set", hostSide, "up");
  }

  /** Removes the namespace and the pair; quietly, as a test's cleanup must not fail. */
  @Override
  public void close() {
    run("ip", "netns", "del", name);
    run("ip", "link", "del", hostSide);
  }

  private void ip(String... args) {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(args));
    Result r = run(command.toArray(String[]::new));
    if (r.exit != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + r.out.strip());
    }
  }

  private record Result(int exit, String out) {}

  private static Result run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, String.join(" ", command) + " did not finish in 30 s");
      }
      return new Result(p.exitValue(), out);
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, "interrupted");
    }
  }
}
