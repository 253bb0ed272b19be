// Dashboard (spec 002 §2.1, issue 18): the charts a broker looks at first, then the cards the user may open
// (declared in schemas/_shared/dashboard.json), with a live count where one helps.
import { Link } from 'react-router-dom';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useDashboardData } from '../api/hooks.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { Icon } from '../lib/Icon.tsx';
import { usePageMeta } from '../lib/pageMeta.tsx';
import DashboardCharts from './DashboardCharts.tsx';
import { visibleCards } from './sections.ts';

export default function Dashboard() {
  usePageMeta({ title: 'Dashboard', icon: 'dashboard' });
  const { definitions } = useDefinitions();
  const { data } = useDashboardData();
  const cards = visibleCards(definitions?.dashboard, definitions?.resources ?? []);
  return (
    <>
      {data && <DashboardCharts data={data} />}
      <Row xs={1} sm={2} xl={4} className="g-3">
        {cards.map((card) => {
          const count = card.count ? data?.conteggi[card.count] : undefined;
          return (
            <Col key={card.route}>
              <Card className="h-100 shadow-sm dashboard-card">
                <Card.Body className="d-flex align-items-center gap-3">
                  <Icon name={card.icon ?? 'list'} size={32} className="text-primary flex-shrink-0" />
                  <div className="d-flex flex-column">
                    <Link to={card.route} className="stretched-link fw-semibold text-uppercase text-decoration-none">
                      {card.title}
                    </Link>
                    {typeof count === 'number' && (
                      <span className="small text-body-secondary" data-testid={`conteggio-${card.count}`}>
                        <Badge bg={count > 0 ? 'danger' : 'secondary'} pill>
                          {count}
                        </Badge>{' '}
                        {card.countLabel}
                      </span>
                    )}
                  </div>
                </Card.Body>
              </Card>
            </Col>
          );
        })}
      </Row>
    </>
  );
}
