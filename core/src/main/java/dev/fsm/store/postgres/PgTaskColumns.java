package dev.fsm.store.postgres;

import dev.fsm.task.Task;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The task table's columns as one store's schema has them: {@code changed} from schema version
 * 6 on. A store opened without migrating (every verb but the creating ones) may be older, and
 * then reads every task's last change as null ({@link Task#changed} falls back to when it
 * entered its state) and writes none.
 */
final class PgTaskColumns {

  /** The schema version that added {@code changed}. */
  static final int CHANGED_SINCE = 6;

  private final boolean changed;
  private final String select;
  private final String selectNoContext;
  private final String fields;
  private final String assignments;
  private final String values;

  private PgTaskColumns(boolean changed) {
    this.changed = changed;
    this.select = select(c -> c);
    this.selectNoContext = select.replace(" context,", " '{}' AS context,");
    List<String> names = new ArrayList<>(List.of(PgRows.FIELD_COLUMNS.split(", ")));
    if (!changed) {
      names.remove("changed");
    }
    this.fields = String.join(", ", names);
    this.assignments = String.join(" = ?, ", names).replace("errors = ?", "errors = ?::json")
        + " = ?";
    this.values = String.join(", ", names.stream()
        .map(n -> n.equals("errors") ? "?::json" : "?").toList());
  }

  static PgTaskColumns of(int schemaVersion) {
    return new PgTaskColumns(schemaVersion >= CHANGED_SINCE);
  }

  /** The columns {@link PgRows#task} reads, in its order. */
  String select() {
    return select;
  }

  /** {@link #select} qualified by {@code alias}. */
  String select(String alias) {
    return select(c -> alias + "." + c);
  }

  /** {@link #select} with every context read as {@code {}}, for lists that show none. */
  String selectNoContext() {
    return selectNoContext;
  }

  /** The columns {@link #bind} binds, in order: everything but the id. */
  String fields() {
    return fields;
  }

  /** {@link #fields} as {@code column = ?} assignments, for an update. */
  String assignments() {
    return assignments;
  }

  /** The placeholders of {@link #fields}, for an insert. */
  String values() {
    return values;
  }

  /** What {@code ls --sort updated} orders by, as {@link Task#updated} has it. */
  String updated() {
    return changed ? "GREATEST(changed, state_entered, last_attempt)"
        : "GREATEST(state_entered, last_attempt)";
  }

  /** Binds a task's {@link #fields} from parameter {@code first}; the next parameter. */
  int bind(PreparedStatement s, int first, Task t) throws SQLException {
    int i = PgRows.bindFields(s, first, t);
    if (changed) {
      PgRows.setTime(s, i++, t.changed());
    }
    return i;
  }

  private String select(UnaryOperator<String> column) {
    List<String> out = new ArrayList<>();
    for (String c : PgRows.TASK_COLUMNS.split(", ")) {
      out.add(c.equals("changed") && !changed ? "NULL::timestamptz AS changed" : column.apply(c));
    }
    return String.join(", ", out);
  }
}
