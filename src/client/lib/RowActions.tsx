// The edit and delete buttons of a table row, the same in the generic grid and in every custom table.
import Button from 'react-bootstrap/Button';
import { Icon } from './Icon.tsx';

export interface RowActionsProps {
  /** What the row is, read by screen readers: "Modifica Mario Rossi". */
  name: string;
  onEdit?: () => void;
  onDelete?: () => void;
  className?: string;
}

export function RowActions({ name, onEdit, onDelete, className = 'd-flex gap-1 align-items-center' }: RowActionsProps) {
  if (!onEdit && !onDelete) return null;
  return (
    <div className={className}>
      {onEdit && (
        <Button size="sm" variant="outline-primary" className="py-0 px-1" aria-label={`Modifica ${name}`} title="Modifica" onClick={onEdit}>
          <Icon name="edit" size={16} />
        </Button>
      )}
      {onDelete && (
        <Button size="sm" variant="outline-danger" className="py-0 px-1" aria-label={`Elimina ${name}`} title="Elimina" onClick={onDelete}>
          <Icon name="trash" size={16} />
        </Button>
      )}
    </div>
  );
}
