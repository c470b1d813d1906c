package dev.memhook.api.internal;

import java.util.HashSet;
import java.util.Set;

/**
 * The one rule of the API's builders, kept in one place: each setting may be set once on a builder,
 * and a setter whose value is rejected sets nothing. A setter calls {@link #checkUnset} first,
 * validates and assigns, and returns through {@link #recorded}, so a rejected value never reaches
 * {@code recorded}. A setter that sets several settings (a shortcut such as {@code
 * RecallOptions.Builder.noRelevanceGate()}) names all of them, so it conflicts with each one's own
 * setter.
 *
 * <p>Not thread-safe, like the builders that hold one. Not API: the module exports this package to
 * no one, and its contents may change in any release.
 */
public final class BuilderSettings {

  private final Set<String> set = new HashSet<>();

  /**
   * @throws IllegalStateException naming the first of {@code names} already set on this builder
   */
  public void checkUnset(String... names) {
    for (String name : names) {
      if (set.contains(name)) {
        throw new IllegalStateException(
            name + " was already set on this builder; each setting may be set once");
      }
    }
  }

  /** Records {@code names} as set and returns {@code builder}, for a setter's last line. */
  public <B> B recorded(B builder, String... names) {
    for (String name : names) {
      set.add(name);
    }
    return builder;
  }

  /**
   * {@code value} if it is in {@code [min, max]}.
   *
   * @throws IllegalArgumentException naming the setting, the range and the value otherwise
   */
  public static int inRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  /**
   * {@code value} if it is in {@code [min, max]} (so never NaN).
   *
   * @throws IllegalArgumentException naming the setting, the range and the value otherwise
   */
  public static double inRange(String name, double value, double min, double max) {
    if (!(value >= min && value <= max)) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  /** Forgets every setting: a copied builder starts from values that count as unset. */
  public void clear() {
    set.clear();
  }
}
