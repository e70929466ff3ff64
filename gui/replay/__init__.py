"""Watch a session again: the replay model (no Qt) and its bridge to the screen."""
