// The red asterisk after the label of a required field (hidden from screen readers: the input says "required").
export function RequiredMark({ required }: { required?: boolean }) {
  if (!required) return null;
  return (
    <span className="text-danger" aria-hidden="true">
      {' '}
      *
    </span>
  );
}
