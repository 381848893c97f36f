import { ImageZoom } from '@/shared/ui/ImageZoom';

/** /zoom: the image zoom used by reading questions, on a sample document. */
export function ZoomDemoPage() {
  return (
    <section className="page page-narrow">
      <span className="pill">Image zoom demo</span>
      <h1 className="page-title">Read every detail of a document</h1>
      <p className="page-lead">
        Reading questions often come with a poster, a form or a timetable. Use the zoom button to enlarge the document,
        then scroll to move around it.
      </p>
      <ImageZoom
        src="/samples/zoom-sample.svg"
        alt="Poster of the Laval community centre: free French conversation workshops for newcomers, Tuesdays and Thursdays from 6:30 p.m. to 8 p.m., registration by 15 September at the front desk or by phone at 450-555-0182."
        width={800}
        height={1000}
      />
      <p className="zoom-question">
        <strong>Sample question:</strong> Until when can you register for the workshops?
      </p>
    </section>
  );
}
