// The edit and delete buttons of a table row, the same in the generic grid and in every custom table.
import Button from 'react-bootstrap/Button';
import { Icon } from './Icon.tsx';

export interface RowActionsProps {
  /** What the row is, read by screen readers: "Modifica Mario Rossi". */
  name: string;
  onEdit?: () => void;
  onDelete?: () => void;
  className?: string;
  /** The edit button's word when it opens another screen (a list's rowLink): 'Apri'. */
  editLabel?: string;
  /** More buttons of the row (a desk's own actions), after edit and delete. */
  children?: React.ReactNode;
}

export function RowActions({ name, onEdit, onDelete, className = 'd-flex gap-1 align-items-center', editLabel = 'Modifica', children }: RowActionsProps) {
  if (!onEdit && !onDelete && !children) return null;
  return (
    <div className={className}>
      {onEdit && (
        <Button size="sm" variant="outline-primary" className="py-0 px-1" aria-label={`${editLabel} ${name}`} title={editLabel} onClick={onEdit}>
          <Icon name={editLabel === 'Modifica' ? 'edit' : 'open'} size={16} />
        </Button>
      )}
      {onDelete && (
        <Button size="sm" variant="outline-danger" className="py-0 px-1" aria-label={`Elimina ${name}`} title="Elimina" onClick={onDelete}>
          <Icon name="trash" size={16} />
        </Button>
      )}
      {children}
    </div>
  );
}
