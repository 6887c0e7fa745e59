package dev.fsm.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Prometheus text exposition format, read as a scraper reads it: samples with their labels,
 * and the {@code # TYPE} of each family. For tests that scrape {@code /metrics}.
 */
public final class Exposition {

  /** One sample line: {@code name{labels} value}. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  private final List<Sample> samples;
  private final Map<String, String> types;

  private Exposition(List<Sample> samples, Map<String, String> types) {
    this.samples = samples;
    this.types = types;
  }

  /** Fetches {@code url} over HTTP and parses what it serves; fails on a status other than 200. */
  public static Exposition scrape(String url) {
    try {
      HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
      c.setConnectTimeout(5_000);
      c.setReadTimeout(10_000);
      try {
        int status = c.getResponseCode();
        if (status != 200) {
          throw new AssertionError(url + " answered " + status);
        }
        String type = String.valueOf(c.getContentType());
        if (!type.startsWith("text/plain")) {
          throw new AssertionError(url + " served " + type + ", not the text format");
        }
        try (InputStream in = c.getInputStream()) {
          return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      throw new AssertionError("cannot scrape " + url + ": " + e, e);
    }
  }

  /**
   * Parses the text format.
   *
   * @throws IllegalArgumentException naming the line that is not in the format
   */
  public static Exposition parse(String text) {
    List<Sample> samples = new ArrayList<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.substring(7).split(" ");
        types.put(parts[0], parts[1]);
        continue;
      }
      if (line.startsWith("#")) {
        continue;
      }
      samples.add(sample(line));
    }
    return new Exposition(samples, types);
  }

  private static Sample sample(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        String label = line.substring(i, eq);
        if (line.charAt(eq + 1) != '"') {
          throw new IllegalArgumentException("no quoted label value: " + line);
        }
        StringBuilder value = new StringBuilder();
        int j = eq + 2;
        for (; line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\') {
            char next = line.charAt(++j);
            value.append(next == 'n' ? '\n' : next);
          } else {
            value.append(c);
          }
        }
        labels.put(label, value.toString());
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        }
      }
      i++;
    }
    String[] rest = line.substring(i).strip().split(" ");
    return new Sample(name, labels, value(rest[0]));
  }

  private static double value(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(text);
    };
  }

  /** Every sample. */
  public List<Sample> samples() {
    return samples;
  }

  /** The {@code # TYPE} of a family, e.g. {@code counter} for {@code fsm_transitions_total}. */
  public Optional<String> type(String family) {
    return Optional.ofNullable(types.get(family));
  }

  /** The samples named {@code name} whose labels include {@code labels}. */
  public List<Sample> find(String name, Map<String, String> labels) {
    return samples.stream().filter(s -> s.name().equals(name)
        && s.labels().entrySet().containsAll(labels.entrySet())).toList();
  }

  /** The sum of the samples named {@code name} whose labels include {@code labels}; 0 if none. */
  public double sum(String name, Map<String, String> labels) {
    return find(name, labels).stream().mapToDouble(Sample::value).sum();
  }

  /** The sum of every sample named {@code name}. */
  public double sum(String name) {
    return sum(name, Map.of());
  }
}
