// Dashboard (spec 002 §2.1): eight cards leading to their sections.
import { Link } from 'react-router-dom';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Icon } from '../lib/Icon.tsx';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { DASHBOARD_SECTIONS } from './sections.ts';

export default function Dashboard() {
  usePageMeta({ title: 'Dashboard', icon: 'dashboard' });
  return (
    <Row xs={1} sm={2} xl={4} className="g-3">
      {DASHBOARD_SECTIONS.map((section) => (
        <Col key={section.path}>
          <Card className="h-100 shadow-sm dashboard-card">
            <Card.Body className="d-flex align-items-center gap-3">
              <Icon name={section.icon} size={32} className="text-primary flex-shrink-0" />
              <Link to={section.path} className="stretched-link fw-semibold text-uppercase text-decoration-none">
                {section.title}
              </Link>
            </Card.Body>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
