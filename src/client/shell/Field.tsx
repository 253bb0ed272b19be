// One labelled input of the account screens (account dialog, two-step enrolment, password reset), with the server's
// error under it and tied to it for screen readers.
import Form from 'react-bootstrap/Form';

export function Field(props: {
  id: string;
  label: string;
  type?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  autoComplete: string;
  inputMode?: 'numeric' | 'email' | 'text';
  autoFocus?: boolean;
}) {
  const { id, label, type = 'text', value, onChange, error, autoComplete, inputMode, autoFocus } = props;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
        isInvalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}
