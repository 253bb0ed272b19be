// rjsf's Form with typed changes applied after the keystroke's frame, in a transition: that frame draws only the input (the
// widget keeps its own text), while the form's data, live validation, rules and the other fields follow in an
// interruptible render.
import { flushSync } from 'react-dom';
import { startTransition } from 'react';
import Form from '@rjsf/core';
import type { FormProps } from '@rjsf/core';
import type { FieldPathList } from '@rjsf/utils';

type Change = Parameters<Form['onChange']>;

const valueAt = (data: unknown, path: FieldPathList): unknown =>
  path.reduce<unknown>((node, step) => (node && typeof node === 'object' ? (node as Record<string | number, unknown>)[step] : undefined), data);

/** Runs `task` once the next frame is out (a timer as well, for a page that draws no frames, such as a hidden tab). */
function afterPaint(task: () => void) {
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      task();
    }
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

// Whether a pointer is pressed: the focus moves on the press, and its click comes only on the release.
let pressed = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => (pressed = true), true);
  window.addEventListener('pointerup', () => (pressed = false), true);
  window.addEventListener('pointercancel', () => (pressed = false), true);
}

/** Runs `task` after the frame that follows the press's release (or at once after the next frame without a press): an
 * error shown while a button is held moves what is under it, and the release elsewhere is no click. */
function afterGesture(task: () => void) {
  if (!pressed) return afterPaint(task);
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    window.removeEventListener('pointerup', release, true);
    window.removeEventListener('pointercancel', release, true);
    // The click is dispatched after the release, in the same task: the form's update comes after it.
    setTimeout(() => afterPaint(task), 0);
  };
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
  // A release the page never hears of (outside the window) holds the message back a second at most.
  setTimeout(release, 1000);
}

const mounted = new Set<TypingForm>();

/** Commits the typed changes every form on the page still holds: for a reader of what the forms reported (whether there
 * are unsaved changes) outside the forms' own blur and submit, such as a dialog closed with Escape. */
export function flushTyping(): void {
  for (const form of mounted) form.flushTyping();
}

export class TypingForm extends Form {
  /** Typed changes not yet committed, by field path: applied again at once where the latest data must be read. */
  private readonly deferred = new Map<string, Change>();
  private typing = false;

  constructor(props: FormProps) {
    super(props);
    const apply = this.onChange;
    this.onChange = (...change: Change) => {
      const key = JSON.stringify(change[1]);
      if (!this.typing) {
        // An urgent change of the same field wins over the typed one (React applies it after it as well).
        this.deferred.delete(key);
        apply(...change);
        return;
      }
      this.deferred.set(key, change);
      // After the frame that shows the key: the form's update (defaults, live validation: one uninterruptible step of
      // rjsf's render) must not delay it. A later key of the same field, a blur or a submit takes its place.
      afterPaint(() => {
        if (this.deferred.get(key) === change) startTransition(() => apply(...change));
      });
    };
    // Pending typed changes are queued again in the event's own lane before rjsf queues the blur or the submit, so these
    // see the latest text (a submit outranks a transition, and would otherwise validate and send the data without it).
    const applyPending = () => {
      const pending = [...this.deferred.values()];
      this.deferred.clear();
      for (const change of pending) apply(...change);
    };
    const blur = this.onBlur;
    this.onBlur = (id, data) => {
      applyPending();
      blur(id, data);
    };
    const submit = this.onSubmit;
    this.onSubmit = (event) => {
      applyPending();
      submit(event);
    };
    const reset = this.reset;
    this.reset = () => {
      this.deferred.clear();
      reset();
    };
    this.flushTyping = () => {
      if (this.deferred.size) flushSync(applyPending);
    };
  }

  /** Commits pending typed changes at once, for a reader of `state` outside an event (validateForm). */
  flushTyping: () => void;

  /** Runs a widget's change as typing: the form applies it after the next frame, in a transition. */
  typed = (change: () => void) => {
    this.typing = true;
    try {
      change();
    } finally {
      this.typing = false;
    }
  };

  /** Sets `field` to its own value again after the next frame, in a transition: live validation runs again (now with the
   * field counted as visited) without delaying the frame that shows the focus move. When a press moved the focus, after
   * its release: the message shown would move the field being clicked. A pending typed change of the field validates it
   * anyway, and nothing is done when `needed` says there is nothing new to show. */
  revalidate(field: string, needed: () => boolean) {
    afterGesture(() => {
      if (this.deferred.has(JSON.stringify([field])) || !needed()) return;
      const value = (this.state.formData as Record<string, unknown> | undefined)?.[field];
      startTransition(() => this.setFieldValue(field, value));
    });
  }

  override componentDidMount() {
    mounted.add(this);
  }

  override componentWillUnmount() {
    mounted.delete(this);
  }

  override componentDidUpdate(...args: Parameters<Form['componentDidUpdate']>) {
    super.componentDidUpdate(...args);
    // A typed change is done once its value is in the committed data.
    for (const [key, [value, path]] of this.deferred) if (Object.is(valueAt(this.state.formData, path), value)) this.deferred.delete(key);
  }

  override validateForm() {
    this.flushTyping();
    return super.validateForm();
  }
}
