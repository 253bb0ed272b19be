// The dashboard's charts (issue 18), drawn by Chart.js from GET /api/dashboard: premiums collected per month this
// year against last year, quotations per status, overdue titles by age. Each chart also carries its figures as text
// for screen readers; a part the user may not read (null) is not drawn.
import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { DashboardData } from '../api/dataProvider.ts';
import { formatMoney } from '../lib/format.ts';

ChartJS.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, Tooltip, Legend);

const MESI = ['Gen', 'Feb', 'Mar', 'Apr', 'Mag', 'Giu', 'Lug', 'Ago', 'Set', 'Ott', 'Nov', 'Dic'];
const euro = (cents: number) => formatMoney(cents / 100);

export const testiGrafici = {
  premi: 'Premi incassati per mese',
  quotazioni: 'Quotazioni per stato',
  scaduti: 'Titoli scaduti per anzianità',
  nessunDato: 'Nessun dato.',
};

/** A long axis label on lines of about `width` characters: Chart.js draws an array as lines, never clipped or skipped. */
export function wrapLabel(text: string, width = 18): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

function ChartCard({ title, summary, children, testId, height = 220 }: { title: string; summary: string; children: React.ReactNode; testId: string; height?: number }) {
  return (
    <Card className="h-100 shadow-sm" data-testid={testId}>
      <Card.Body>
        <h2 className="h6 text-uppercase text-body-secondary">{title}</h2>
        <div style={{ position: 'relative', height }}>{children}</div>
        <p className="visually-hidden">{summary}</p>
      </Card.Body>
    </Card>
  );
}

export default function DashboardCharts({ data }: { data: DashboardData }) {
  const { premi, quotazioni, titoli_scaduti: scaduti } = data;
  const charts: React.ReactNode[] = [];
  if (premi) {
    charts.push(
      <ChartCard
        key="premi"
        testId="grafico-premi"
        title={testiGrafici.premi}
        summary={`${premi.anno}: ${premi.mesi.map((v, i) => `${MESI[i]} ${euro(v)}`).join(', ')}. ${premi.anno_precedente}: ${premi.mesi_precedente.map((v, i) => `${MESI[i]} ${euro(v)}`).join(', ')}.`}
      >
        <Line
          aria-label={`${testiGrafici.premi}: ${premi.anno} e ${premi.anno_precedente}`}
          role="img"
          data={{
            labels: MESI,
            datasets: [
              { label: String(premi.anno), data: premi.mesi.map((v) => v / 100), borderColor: '#0d6efd', backgroundColor: '#0d6efd', tension: 0.2 },
              { label: String(premi.anno_precedente), data: premi.mesi_precedente.map((v) => v / 100), borderColor: '#adb5bd', backgroundColor: '#adb5bd', borderDash: [6, 4], tension: 0.2 },
            ],
          }}
          options={{
            maintainAspectRatio: false,
            plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label ?? ''}: ${formatMoney(Number(c.parsed.y))}` } } },
            scales: { y: { beginAtZero: true, ticks: { callback: (v) => formatMoney(Number(v)) } } },
          }}
        />
      </ChartCard>,
    );
  }
  if (quotazioni) {
    const shown = quotazioni.filter((s) => s.totale > 0);
    // Every status named in full: a bar's room grows with the lines of its name, the card with the bars.
    const labels = shown.map((s) => wrapLabel(s.nome));
    const lines = labels.reduce((sum, l) => sum + l.length, 0);
    charts.push(
      <ChartCard key="quotazioni" testId="grafico-quotazioni" title={testiGrafici.quotazioni} summary={shown.map((s) => `${s.nome}: ${s.totale}`).join(', ') || testiGrafici.nessunDato} height={Math.max(220, 40 + lines * 14 + shown.length * 6)}>
        <Bar
          aria-label={testiGrafici.quotazioni}
          role="img"
          data={{ labels, datasets: [{ label: 'Quotazioni', data: shown.map((s) => s.totale), backgroundColor: '#198754' }] }}
          options={{
            maintainAspectRatio: false,
            indexAxis: 'y',
            plugins: { legend: { display: false }, tooltip: { callbacks: { title: (items) => shown[items[0]?.dataIndex ?? 0]?.nome ?? '' } } },
            scales: { x: { beginAtZero: true, ticks: { precision: 0 } }, y: { ticks: { autoSkip: false, font: { size: 11 } } } },
          }}
        />
      </ChartCard>,
    );
  }
  if (scaduti) {
    charts.push(
      <ChartCard
        key="scaduti"
        testId="grafico-scaduti"
        title={testiGrafici.scaduti}
        summary={scaduti.map((f) => `${f.fascia}: ${f.numero} (${euro(f.importo)})`).join(', ')}
      >
        <Bar
          aria-label={testiGrafici.scaduti}
          role="img"
          data={{ labels: scaduti.map((f) => f.fascia), datasets: [{ label: 'Titoli', data: scaduti.map((f) => f.numero), backgroundColor: '#dc3545' }] }}
          options={{
            maintainAspectRatio: false,
            plugins: {
              legend: { display: false },
              tooltip: { callbacks: { label: (c) => `${c.parsed.y} titoli, ${euro(scaduti[c.dataIndex]!.importo)}` } },
            },
            scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
          }}
        />
      </ChartCard>,
    );
  }
  if (!charts.length) return null;
  return (
    <Row xs={1} lg={charts.length} className="g-3 mb-4">
      {charts.map((chart, i) => (
        <Col key={i}>{chart}</Col>
      ))}
    </Row>
  );
}
