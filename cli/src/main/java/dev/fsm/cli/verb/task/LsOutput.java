package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.terminal.Style;
import dev.fsm.cli.terminal.Table;
import dev.fsm.cli.terminal.Tty;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * How {@code fsm ls} prints the tasks it is handed a page at a time: ids and JSON as they come,
 * so that a list of any length costs a page of memory; the table keeps its rows (not the tasks)
 * until the end, as its columns are as wide as their widest cell.
 */
sealed interface LsOutput {

  /**
   * Prints, or keeps, one task; false once nobody reads the output any more (a pipe into {@code
   * head} closed), so that the list stops being read.
   */
  boolean add(Task t, ShownStatus shown);

  /** Tasks printed between two looks at whether the output still has a reader. */
  int CHECK_EVERY = 1_000;

  /** Ends the output once every task was added; {@code none} when there was none. */
  void end(boolean none);

  /** The output {@code global} asks for. */
  static LsOutput of(boolean quiet, GlobalOptions global, PrintWriter out) {
    return global.json() ? new Json(out) : quiet ? new Ids(out) : new Rows(global, out);
  }

  /** {@code -q}: one id a line. */
  final class Ids implements LsOutput {
    private final PrintWriter out;
    private long printed;

    Ids(PrintWriter out) {
      this.out = out;
    }

    @Override
    public boolean add(Task t, ShownStatus shown) {
      out.println(t.id());
      return ++printed % CHECK_EVERY != 0 || !out.checkError();
    }

    @Override
    public void end(boolean none) {
      out.flush();
    }
  }

  /** {@code --output json}: one indented array, laid out as {@link JsonDocument#print} does. */
  final class Json implements LsOutput {
    private static final JsonFactory JSON =
        new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    private final PrintWriter out;
    private JsonGenerator g;
    private long printed;

    Json(PrintWriter out) {
      this.out = out;
    }

    @Override
    public boolean add(Task t, ShownStatus shown) {
      try {
        TaskJson.task(started(), t, shown);
        if (++printed % CHECK_EVERY == 0) {
          g.flush();
          return !out.checkError();
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write JSON", e);
      }
    }

    @Override
    public void end(boolean none) {
      try {
        started().writeEndArray();
        g.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write JSON", e);
      }
      out.println();
      out.flush();
    }

    /** The generator, the array begun at the first task, so a refused first page prints none. */
    private JsonGenerator started() throws IOException {
      if (g == null) {
        g = JSON.createGenerator(out).useDefaultPrettyPrinter();
        g.writeStartArray();
      }
      return g;
    }
  }

  /** The table, or a line on stderr when there is nothing to show. */
  final class Rows implements LsOutput {
    private final GlobalOptions global;
    private final PrintWriter out;
    private final Table table;
    private final boolean ages = Tty.stdout();
    private final Instant now = Instant.now();

    Rows(GlobalOptions global, PrintWriter out) {
      this.global = global;
      this.out = out;
      Style style = Style.forTerminal(global.colorAllowed());
      this.table = new Table("ID", "MACHINE", "STATE", "STATUS", "ATTEMPT", "DUE/UPDATED")
          .paint(3, word -> TaskText.status(style, word));
    }

    @Override
    public boolean add(Task t, ShownStatus shown) {
      table.add(t.id(), t.machine(), t.state(), shown.word(), t.attempt(),
          ages ? TaskText.dueOrUpdated(t, now) : TaskText.dueOrUpdated(t));
      return true;
    }

    @Override
    public void end(boolean none) {
      if (!none) {
        table.print(out, global.columns());
      }
    }
  }
}
